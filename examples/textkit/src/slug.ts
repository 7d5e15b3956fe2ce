import unidecode from "unidecode";
import { MAX_LENGTH } from "./config";

/** Turns a title into a URL slug: ASCII, lower case, words joined by `sep`. */
export function slugify(text: string, sep: string = "-"): string {
  const ascii = unidecode(text).toLowerCase();
  const words = ascii.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  return words.join(sep).slice(0, MAX_LENGTH);
}
