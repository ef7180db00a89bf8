// Operator command of the content module: a signed preview URL of a region, a country or the
// About Us page in one market and language (the console's Preview links make the same URLs).
import type { Command } from '../../platform/cli.js';
import { type PreviewKind, previewUrl } from './preview.js';

const KINDS: Record<string, PreviewKind> = { region: 'region', country: 'country', 'about-us': 'about_us' };
const USAGE = 'content:preview-url region|country SLUG MARKET LANG, or content:preview-url about-us MARKET LANG';

export const commands: Record<string, Command> = {
  'content:preview-url': {
    describe:
      'print a signed preview URL of a region, country or the About Us page (any status; valid PREVIEW_URL_TTL_MINUTES)',
    usage: USAGE,
    async run(args, cli) {
      const [word, ...rest] = args.positional;
      const kind = KINDS[word ?? ''];
      const parts = kind === 'about_us' ? ['', ...rest] : rest;
      const [slug, market, lang] = parts;
      if (!kind || parts.length !== 3 || !market || !lang || (kind !== 'about_us' && !slug)) {
        cli.err(`usage: npm run cli -- ${USAGE}`);
        return 2;
      }
      cli.out(previewUrl(cli.config, { kind, slug, market, lang }, new Date()));
      return 0;
    },
  },
};
