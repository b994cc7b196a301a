/**
 * `portico/testing`: everything a plugin author needs to test a plugin with one import —
 * the test kernel with its fetch double, wire fixtures, the plugin contract suite (which uses
 * vitest's describe/it/expect) and `renderScreen()` (a screen in the real modal shell; needs
 * @testing-library/react and a DOM environment).
 */
export * from './index'
export { pluginContract, type ContractOptions } from '../contract/index'
/** The kernel's own error mapping, which applies when no plugin's errorView tap claims an error. */
export { defaultErrorView } from 'portico/internal'
export { renderScreen, type RenderScreenOptions, type RenderedScreen } from './render'
