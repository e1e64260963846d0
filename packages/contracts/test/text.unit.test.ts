import { describe, expect, it } from 'vitest';
import { isCleanLine, isCleanText } from '../src/browser/index.ts';
import { AddReviewRequestSchema, CreateOfferRequestSchema, CreateReportSchema, ListingFormSchema, RegisterRequestSchema, SendChatMessageRequestSchema, TEXT_MESSAGES } from '../src/index.ts';

// Written as escapes: the characters under test are invisible in an editor.
const RLO = '\u202E';
const NUL = '\u0000';
const ZWSP = '\u200B';
const ZWJ = '\u200D';
const LONE_HIGH = '\uD83D';
const LONE_LOW = '\uDE00';

describe('isCleanLine and isCleanText', () => {
  it('accept ordinary text of any script, accents, emoji and their sequences', () => {
    for (const text of [
      'Anne-Marie van der Berg',
      "Zoë D'Hondt",
      'Łódź, Ærøskøbing, İstanbul',
      'Ελένη, Иван, 王小明, محمد, שָׁלוֹם',
      'Fiets 🚲 te ruil! 😄',
      '👍🏽 🇳🇱',
      // Zero-width joiners inside emoji sequences: a family, a technologist with a skin tone, the rainbow flag, an eye in a bubble.
      '👨‍👩‍👧 🧑🏽‍💻 🏳️‍🌈 👁️‍🗨️ 🏃‍♀️',
      // A subdivision flag: tag characters after the black flag.
      '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
      '', // an empty field is for the required checks, not this rule
    ]) {
      expect(isCleanLine(text), JSON.stringify(text)).toBe(true);
      expect(isCleanText(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('refuse bidi overrides and isolates, NUL and other control characters, zero-width and other format characters', () => {
    for (const ch of [RLO, '\u202D', '\u202A', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', NUL, '\u0007', '\u001B', '\u007F', '\u0085', '\u009B', ZWSP, '\u200C', '\u2060', '\uFEFF', '\u00AD', '\u2028', '\u2029', '\u{E0041}', '\u{E0001}']) {
      const spoof = `Sanne${ch}Jansen`;
      expect(isCleanLine(spoof), `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`).toBe(false);
      expect(isCleanText(spoof), `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`).toBe(false);
    }
    // The probe's name that reads as another: 'Daan' followed by an override turning 'nnaS' around.
    expect(isCleanLine(`Daan ${RLO}nnaS`)).toBe(false);
  });

  it('refuse lone surrogates, high or low, anywhere; a whole pair is one character', () => {
    for (const text of [LONE_HIGH, LONE_LOW, `a${LONE_HIGH}b`, `a${LONE_LOW}`, `${LONE_LOW}${LONE_HIGH}`, `😀${LONE_HIGH}`]) {
      expect(isCleanLine(text), JSON.stringify(text)).toBe(false);
      expect(isCleanText(text), JSON.stringify(text)).toBe(false);
    }
    expect(isCleanLine(`${LONE_HIGH}${LONE_LOW}`)).toBe(true);
  });

  it('keep a zero-width joiner only between two emoji: alone, between letters, at an end or after a letter it is refused', () => {
    for (const text of [ZWJ, `Sanne${ZWJ}`, `${ZWJ}Sanne`, `San${ZWJ}ne`, `a${ZWJ}😀`, `😀${ZWJ}a`, `😀${ZWJ}`, `😀${ZWJ}${ZWJ}😀`]) {
      expect(isCleanLine(text), JSON.stringify(text)).toBe(false);
    }
    // Tag characters anywhere but in a flag are refused.
    expect(isCleanLine('Vlag\u{E0067}\u{E0062}\u{E007F}')).toBe(false);
  });

  it('allow line breaks and tabs in multi-line text only', () => {
    for (const text of ['Hallo,\nTot morgen!', 'Regel een\r\nRegel twee', 'Kolom\tkolom']) {
      expect(isCleanText(text)).toBe(true);
      expect(isCleanLine(text)).toBe(false);
    }
  });
});

describe('the route schemas', () => {
  const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message);
  const register = { firstName: 'Sanne', lastName: 'Jansen', email: 'sanne@example.nl', password: 'Geheim123' };

  it('refuse a name with an override, a chat message with NUL, a listing title with a zero-width space, with the one Dutch message', () => {
    expect(messageOf(RegisterRequestSchema.safeParse({ ...register, firstName: `Daan ${RLO}nnaS` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
    expect(messageOf(RegisterRequestSchema.safeParse({ ...register, city: `Utrecht${NUL}` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
    expect(messageOf(SendChatMessageRequestSchema.safeParse({ tradeOfferId: 1, content: `Hoi${NUL}` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
    expect(messageOf(SendChatMessageRequestSchema.safeParse({ tradeOfferId: 1, content: `Hoi ${LONE_HIGH}` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
    const form = { title: `Fiets${ZWSP}`, description: 'Goed', listingType: 'item', CategoryIDs: 'a' };
    expect(messageOf(ListingFormSchema.safeParse(form))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
    expect(messageOf(ListingFormSchema.safeParse({ ...form, title: 'Fiets', description: `Goed${RLO}` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
  });

  it('accept multi-line messages, descriptions, reasons and comments with emoji', () => {
    expect(SendChatMessageRequestSchema.safeParse({ tradeOfferId: 1, content: 'Hoi!\nMorgen om 10 uur? 👨‍👩‍👧' }).success).toBe(true);
    expect(ListingFormSchema.safeParse({ title: 'Fiets 🚲', description: 'Goed.\n\n\tZo goed als nieuw', listingType: 'item', CategoryIDs: 'a' }).success).toBe(true);
    expect(CreateReportSchema.safeParse({ reportedID: 'a'.repeat(24), reason: 'Niet komen opdagen.\nTwee keer.' }).success).toBe(true);
    expect(AddReviewRequestSchema.safeParse({ revieweeID: 'a'.repeat(24), rating: 5, comment: 'Top!\nDank je 🙏' }).success).toBe(true);
    const offer = { receiverID: 'a'.repeat(24), listingOfferedOnID: 'b'.repeat(24), message: 'Ruilen?\nGraag!' };
    expect(CreateOfferRequestSchema.safeParse(offer).success).toBe(true);
    expect(messageOf(CreateOfferRequestSchema.safeParse({ ...offer, message: `Ruilen${NUL}` }))).toEqual([TEXT_MESSAGES.forbiddenCharacters]);
  });
});
