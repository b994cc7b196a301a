/** The captcha's timing rules (part 1 section 9), shared by the entry and the widget controller. */
export const MAX_RETRIES = 3
export const FIRST_RETRY_DELAY_MS = 1000
export const POLL_MS = 200
export const WAIT_TIMEOUT_MS = 20_000
/** The provider's script must load within this. */
export const SCRIPT_TIMEOUT_MS = 15_000
