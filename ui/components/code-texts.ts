/** Text of the numeric rule (part 1 section 5). */
export const CODE_NUMERIC_ERROR = 'Code should be numeric'
