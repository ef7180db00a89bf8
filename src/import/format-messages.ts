// What a refused format means, as a sentence for the people who type it (the console's forms and
// the import command): every pattern the import schemas use has one; an unknown pattern falls back
// to a plain sentence that names no regular expression.

const SENTENCES: Record<string, string> = {
  '^[a-z0-9]+(?:-[a-z0-9]+)*$': 'Use lowercase letters, digits and single hyphens between them, e.g. "nepal-trek".',
  '^[a-z0-9]+(-[a-z0-9]+)*$': 'Use lowercase letters, digits and single hyphens between them, e.g. "nepal-trek".',
  '^[A-Z]{3}$': 'Use three capital letters, e.g. "MAD" or "EUR".',
  '^[A-Za-z]{3}$': 'Use three letters, e.g. "MAD".',
  '^[a-z]{2}$': 'Use a two-letter lowercase language code, e.g. "en".',
  '^[a-z]{2,3}$': 'Use two or three lowercase letters, e.g. "es".',
  '^[a-z]{2}_[A-Z]{2}$': 'Use a language and a market code joined by an underscore, e.g. "en_GB".',
  '^\\d{1,10}(?:\\.\\d{1,2})?$': 'Use an amount with at most two decimals and a point, e.g. "1234.50".',
  '^\\d{1,10}(?:\\.\\d{1,8})?$': 'Use a number with at most eight decimals and a point, e.g. "1.0832".',
  '^\\d{1,3}(?:\\.\\d{1,2})?$': 'Use a percentage with at most two decimals, e.g. "12.5".',
  '^\\d{4}-\\d{2}-\\d{2}$': 'Use a date as year-month-day, e.g. "2027-03-14".',
  '^[A-Za-z0-9][A-Za-z0-9_.-]*$':
    'Start with a letter or digit and use only letters, digits, dots, hyphens and underscores.',
  '^[1-9]A(?:\\+[1-9]CH)?$': 'Use a room type such as "2A" or "2A+1CH".',
};

/** The sentence for a value that does not match `pattern`. */
export function formatSentence(pattern: string): string {
  return SENTENCES[pattern] ?? 'Check the value: it is not in the expected form.';
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'must be a whole number',
  number: 'must be a number',
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be a group of fields',
  null: 'must be empty',
};

/** A schema refusal (typebox's keyword and params) as words for people; its own message otherwise. */
export function schemaSentence(keyword: string, params: Record<string, unknown>, message: string): string {
  const limit = params.limit;
  switch (keyword) {
    case 'type':
      return TYPE_WORDS[String(params.type)] ?? message;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minimum':
      return params.comparison === '>' ? `must be more than ${limit}` : `must be at least ${limit}`;
    case 'maximum':
      return params.comparison === '<' ? `must be less than ${limit}` : `must be at most ${limit}`;
    case 'minItems':
      return `must have at least ${limit} entr${limit === 1 ? 'y' : 'ies'}`;
    case 'maxItems':
      return `must have at most ${limit} entr${limit === 1 ? 'y' : 'ies'}`;
    default:
      return message;
  }
}
