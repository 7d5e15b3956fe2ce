/** Cuts `text` to at most `max` characters, ending it with `suffix` when cut. */
export function truncate(text: string, max: number = 80, suffix: string = "..."): string {
  if (text.length <= max) {
    return text;
  }
  return text.slice(0, max - suffix.length) + suffix;
}
