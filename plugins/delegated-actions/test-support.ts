/** Test helpers of this plugin's tests (not exported from the entry). */
export * from './index'
export { delegable } from './flow'
export { DELEGATED_ACTIONS_TEXTS } from './strings'
