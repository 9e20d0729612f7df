/** The most fields one document can carry. */
export const MAX_FIELDS_PER_DOCUMENT = 200;
/** The smallest width or height of a field, in points. */
export const MIN_FIELD_SIZE = 8;
/** The longest text a text field takes. */
export const MAX_TEXT_VALUE = 500;
/** The longest initials. */
export const MAX_INITIALS = 10;
