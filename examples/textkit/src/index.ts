export { slugify } from "./slug";
export { truncate } from "./truncate";
export { DEFAULT_LOCALE, MAX_LENGTH } from "./config";
