/**
 * `portico/testing`: everything a plugin author needs to test a plugin with one import —
 * the test kernel with its fetch double, wire fixtures and the plugin contract suite
 * (which uses vitest's describe/it/expect).
 */
export * from './index'
export { pluginContract, type ContractOptions } from '../contract/index'
