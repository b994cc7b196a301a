/**
 * The guest plugin's errors. It raises none of its own: a login while a non-guest is logged
 * in is the kernel's `already_logged_in` (`ctx.assertLoggedOut()`), and the server's codes
 * (`disallowed_login_method`, `too_many_requests` ...) keep the kernel's views.
 */
import { defineErrors } from 'portico'

export const GUEST_ERRORS = defineErrors({})
