/**
 * Bench host: the identity plugins (./identity-plugins.ts: the set issue 11's "every built-in
 * plugin on, at most 60 KiB gzip" target was set for), host code from ./host.tsx.
 */
import { identityPlugins } from './identity-plugins'
import { mount } from './host'

mount(identityPlugins())
