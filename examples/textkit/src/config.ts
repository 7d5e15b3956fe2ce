/** Locale used when a caller passes none. */
export const DEFAULT_LOCALE = "en-US";

/** Longest slug `slugify` returns, in characters. */
export const MAX_LENGTH = 120;
