// A browser's side of the checkout for HTTP tests: requests through app.inject from one client
// address, with the cookies the answers set sent back on the next request; and the contact and
// traveler bodies the payment tests fill the checkout with.
import type { App } from '../../src/app.js';

export class CookieJar {
  cookies = new Map<string, string>();

  /** `app` is read per call: test files build their app in beforeAll */
  constructor(
    private readonly app: () => App,
    private readonly clientIp: string,
  ) {}

  async call(method: string, url: string, payload?: unknown) {
    const res = await this.app().inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      headers: {
        'x-forwarded-for': this.clientIp,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const c of res.cookies) this.cookies.set(c.name, c.value);
    return res;
  }
}

export const travelerInput = (first: string, passport: string) => ({
  first_name: first,
  last_name: 'Garcia',
  nationality: 'ES',
  passport_number: passport,
  passport_expiry: '2031-01-01',
  birth_date: '1980-02-03',
  phone: '+34600000000',
  email: 'ana@example.com',
});

export const clientInput = { first_name: 'Ana', last_name: 'Garcia', email: 'ana@example.com', phone: '+34600000000' };
