// Hovers are markdown, and what they quote comes from files a cloned repository holds (script
// names and bodies, package names, paths): quoted text must show as written, never as a link,
// an image or HTML.

/**
 * `text` as an inline code span: its fence is longer than any run of backticks in it, and line
 * breaks become spaces (a blank line would end the paragraph before the span closes).
 */
export function code(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each side of a span that starts and ends with one: pad
  // text that starts or ends with a backtick or a space, so it shows exactly as written.
  const pad = flat === "" || /^[` ]|[` ]$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * `text` in prose (rt's messages quote names from the files): every ASCII punctuation character
 * backslash-escaped, as CommonMark allows, so no link, image, autolink, HTML or emphasis starts.
 */
export function prose(text: string): string {
  return text.replace(/\r\n|\r|\n/g, " ").replace(/[!-/:-@[-`{-~]/g, "\\$&");
}
