import type { Portico } from 'portico'

export interface EmailOptions {
  /** Log in existing users only: authenticate with mode 'no-signup'. */
  disableSignup?: boolean
}

/** The plugin's options, as `email(options)` stored them in config.extra.email. */
export function emailOptions(kernel: Pick<Portico, 'config'>): EmailOptions {
  return ((kernel.config.extra as Record<string, unknown>)['email'] as EmailOptions | undefined) ?? {}
}
