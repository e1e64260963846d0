// One rule for every free-text field a member types (names, city, titles, descriptions, offer and
// chat messages, report, warning and ban texts, review comments, search terms): it must read as
// what it is. Refused: control characters (Unicode Cc: NUL, escape, ...), format characters (Cf:
// bidi overrides and isolates that make a name read as another, zero-width spaces and joiners,
// soft hyphens, the byte-order mark), line and paragraph separators, and lone surrogates (half a
// character: no font shows it and UTF-8 cannot carry it). Multi-line fields keep their line breaks
// and tabs. Two format characters stay where they are part of one visible picture: the zero-width
// joiner between two emoji (👩‍💻, 🏳️‍🌈) and the tag characters of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
// Zod-free: exported by `@ruilplein/contracts/browser`, so forms check what the services check.

export const TEXT_MESSAGES = {
  /** One message for every field the rule refuses. */
  forbiddenCharacters: 'Gebruik geen onzichtbare tekens of stuurtekens.',
} as const;

/** A joiner right after an emoji (its variation selector or skin tone included) and right before another. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})/gu;
/** The tags of a subdivision flag: the black flag, tag letters, the cancel tag. */
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** Control and format characters, line and paragraph separators, lone surrogates (`u`: a pair is one code point). */
const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029\p{Cs}]/u;
/** The control characters multi-line text may hold. */
const LINE_BREAKS_AND_TABS = /[\t\n\r]/g;

const withoutEmojiSequences = (text: string) => (/[\u200D\u{E007F}]/u.test(text) ? text.replace(EMOJI_JOINER, '').replace(FLAG_TAGS, '') : text);

/** A one-line field (a name, a city, a title, a search term) holds no invisible or control characters. */
export const isCleanLine = (text: string): boolean => !FORBIDDEN.test(withoutEmojiSequences(text));

/** A multi-line field (a description, a message, a reason, a comment): as a line, but line breaks and tabs are fine. */
export const isCleanText = (text: string): boolean => !FORBIDDEN.test(withoutEmojiSequences(text).replace(LINE_BREAKS_AND_TABS, ''));
