import { describe, expect, it } from 'vitest';
import { type MailFacts, renderMail } from './templates.js';

const facts = (language: string, market: string): MailFacts => ({
  firstName: 'Ana <3',
  reference: 'IT-ABC123',
  departureDate: '2026-10-13',
  totalCents: 391_000,
  amountPaidCents: 117_300,
  balanceCents: 273_700,
  balanceDueDate: '2026-08-14',
  currency: 'EUR',
  market,
  language,
  payLink: 'https://travel.example/es/es/pay/IT-ABC123?expires=1&signature=ab',
});

describe('customer e-mail templates', () => {
  it('speaks each market language, English otherwise', () => {
    const subject = (lang: string, market: string) => renderMail('balance_failed', facts(lang, market)).subject;
    expect(subject('es', 'es')).toBe('Reserva IT-ABC123: no hemos podido cobrar el pago pendiente');
    expect(subject('ca', 'es')).toBe('Reserva IT-ABC123: no hem pogut cobrar el pagament pendent');
    expect(subject('en', 'uk')).toBe('Booking IT-ABC123: we could not charge your balance');
    expect(subject('de', 'de')).toBe('Buchung IT-ABC123: Restzahlung nicht möglich');
    expect(subject('fr', 'ca')).toBe('Réservation IT-ABC123 : nous n’avons pas pu prélever votre solde');
    expect(subject('it', 'it')).toBe('Booking IT-ABC123: we could not charge your balance');
  });

  it('has a text and an HTML part with the same facts, the pay link and escaped values', () => {
    const m = renderMail('balance_failed', facts('en', 'us'));
    expect(m.text).toBe(
      [
        'Hello Ana <3,',
        '',
        'We could not charge the balance of your booking to your saved card. Please pay it here:',
        'https://travel.example/es/es/pay/IT-ABC123?expires=1&signature=ab',
        '',
        'Departure: October 13, 2026',
        'Total: €3,910.00',
        'Paid: €1,173.00',
        'Balance: €2,737.00',
        'Balance due on: August 14, 2026',
        '',
        'Kind regards,',
        'The itinera team',
        '',
      ].join('\n'),
    );
    expect(m.html).toContain('<p>Hello Ana &lt;3,</p>');
    expect(m.html).toContain(
      '<a href="https://travel.example/es/es/pay/IT-ABC123?expires=1&amp;signature=ab">Pay the balance</a>',
    );
    expect(m.html).toContain('<th align="left">Balance due on</th><td>August 14, 2026</td>');
  });

  it('says a trip is fully paid when nothing remains, and shows no due date', () => {
    const m = renderMail('booking_confirmation', { ...facts('es', 'es'), amountPaidCents: 391_000, balanceCents: 0 });
    expect(m.text).toContain('Tu viaje está totalmente pagado.');
    expect(m.text).not.toContain('Fecha de pago');
    expect(m.text).not.toContain('/pay/');
  });
});
