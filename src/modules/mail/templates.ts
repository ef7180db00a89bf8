// The customer e-mails, in the booking's language (the demo markets speak es, ca, en, de and fr;
// any other language gets English), each with a plain-text and an HTML part built from the same
// lines. Pure: facts in, subject and bodies out.
import { centsToNumber } from '../../platform/money.js';
import { escapeHtml } from '../monitoring/rules.js';

export type MailKind =
  | 'booking_confirmation'
  | 'balance_reminder'
  | 'balance_receipt'
  | 'balance_failed'
  | 'booking_amended'
  | 'booking_cancelled';

export interface MailFacts {
  firstName: string;
  reference: string;
  /** YYYY-MM-DD */
  departureDate: string;
  totalCents: number;
  amountPaidCents: number;
  balanceCents: number;
  /** YYYY-MM-DD, null when nothing is left to pay */
  balanceDueDate: string | null;
  currency: string;
  market: string;
  language: string;
  /** balance_failed and balance_reminder: where to pay */
  payLink?: string;
  /** booking_confirmation and booking_amended: the signed "manage my booking" link */
  manageLink?: string | null;
  /** booking_amended: what changed, one line each */
  changes?: string[];
  /** booking_amended: the price difference in minor units (positive: more to pay) */
  priceDifferenceCents?: number;
  /** booking_cancelled: the cancellation fee and what is refunded to the card */
  cancellation?: { feeCents: number; refundCents: number };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Words {
  hello: (name: string) => string;
  regards: string;
  departure: string;
  total: string;
  paid: string;
  balance: string;
  due: string;
  pay: string;
  manage: string;
  difference: string;
  subjects: Record<MailKind, (ref: string) => string>;
  intro: Record<MailKind, string>;
  fullyPaid: string;
  fee: string;
  refund: string;
}

const WORDS: Record<string, Words> = {
  en: {
    hello: (n) => `Hello ${n},`,
    regards: 'Kind regards,\nThe itinera team',
    departure: 'Departure',
    total: 'Total',
    paid: 'Paid',
    balance: 'Balance',
    due: 'Balance due on',
    pay: 'Pay the balance',
    manage: 'Manage your booking',
    difference: 'Price difference',
    subjects: {
      booking_confirmation: (r) => `Booking ${r} confirmed`,
      balance_reminder: (r) => `Booking ${r}: your balance is due soon`,
      balance_receipt: (r) => `Booking ${r}: balance received`,
      balance_failed: (r) => `Booking ${r}: we could not charge your balance`,
      booking_amended: (r) => `Booking ${r} changed`,
      booking_cancelled: (r) => `Booking ${r} cancelled`,
    },
    intro: {
      booking_confirmation: 'Thank you for your booking. We have received your payment.',
      balance_reminder: 'The balance of your booking will be charged to your saved card on the due date.',
      balance_receipt: 'We have received the balance of your booking. Your trip is fully paid.',
      balance_failed: 'We could not charge the balance of your booking to your saved card. Please pay it here:',
      booking_amended: 'Your booking has been changed as follows:',
      booking_cancelled:
        'Your booking has been cancelled. Any refund goes back to the card you paid with; your bank may take up to 10 days to show it.',
    },
    fullyPaid: 'Your trip is fully paid.',
    fee: 'Cancellation fee',
    refund: 'Refund',
  },
  es: {
    hello: (n) => `Hola ${n}:`,
    regards: 'Un saludo,\nEl equipo de itinera',
    departure: 'Salida',
    total: 'Total',
    paid: 'Pagado',
    balance: 'Pendiente',
    due: 'Fecha de pago del resto',
    pay: 'Pagar el resto',
    manage: 'Gestionar tu reserva',
    difference: 'Diferencia de precio',
    subjects: {
      booking_confirmation: (r) => `Reserva ${r} confirmada`,
      balance_reminder: (r) => `Reserva ${r}: el pago pendiente vence pronto`,
      balance_receipt: (r) => `Reserva ${r}: pago pendiente recibido`,
      balance_failed: (r) => `Reserva ${r}: no hemos podido cobrar el pago pendiente`,
      booking_amended: (r) => `Reserva ${r} modificada`,
      booking_cancelled: (r) => `Reserva ${r} cancelada`,
    },
    intro: {
      booking_confirmation: 'Gracias por tu reserva. Hemos recibido tu pago.',
      balance_reminder: 'El importe pendiente de tu reserva se cargará en tu tarjeta guardada en la fecha indicada.',
      balance_receipt: 'Hemos recibido el importe pendiente de tu reserva. Tu viaje está totalmente pagado.',
      balance_failed: 'No hemos podido cargar el importe pendiente en tu tarjeta guardada. Puedes pagarlo aquí:',
      booking_amended: 'Tu reserva se ha modificado así:',
      booking_cancelled:
        'Tu reserva ha sido cancelada. El reembolso vuelve a la tarjeta con la que pagaste; tu banco puede tardar hasta 10 días en mostrarlo.',
    },
    fullyPaid: 'Tu viaje está totalmente pagado.',
    fee: 'Gastos de cancelación',
    refund: 'Reembolso',
  },
  ca: {
    hello: (n) => `Hola ${n}:`,
    regards: 'Salutacions,\nL’equip d’itinera',
    departure: 'Sortida',
    total: 'Total',
    paid: 'Pagat',
    balance: 'Pendent',
    due: 'Data de pagament de la resta',
    pay: 'Pagar la resta',
    manage: 'Gestionar la teva reserva',
    difference: 'Diferència de preu',
    subjects: {
      booking_confirmation: (r) => `Reserva ${r} confirmada`,
      balance_reminder: (r) => `Reserva ${r}: el pagament pendent venç aviat`,
      balance_receipt: (r) => `Reserva ${r}: pagament pendent rebut`,
      balance_failed: (r) => `Reserva ${r}: no hem pogut cobrar el pagament pendent`,
      booking_amended: (r) => `Reserva ${r} modificada`,
      booking_cancelled: (r) => `Reserva ${r} cancel·lada`,
    },
    intro: {
      booking_confirmation: 'Gràcies per la teva reserva. Hem rebut el teu pagament.',
      balance_reminder: 'L’import pendent de la teva reserva es carregarà a la targeta desada en la data indicada.',
      balance_receipt: 'Hem rebut l’import pendent de la teva reserva. El teu viatge està totalment pagat.',
      balance_failed: 'No hem pogut carregar l’import pendent a la teva targeta desada. Pots pagar-lo aquí:',
      booking_amended: 'La teva reserva s’ha modificat així:',
      booking_cancelled:
        'La teva reserva ha estat cancel·lada. El reemborsament torna a la targeta amb què vas pagar; el teu banc pot trigar fins a 10 dies a mostrar-lo.',
    },
    fullyPaid: 'El teu viatge està totalment pagat.',
    fee: 'Despeses de cancel·lació',
    refund: 'Reemborsament',
  },
  de: {
    hello: (n) => `Hallo ${n},`,
    regards: 'Viele Grüße\nIhr itinera-Team',
    departure: 'Abreise',
    total: 'Gesamtpreis',
    paid: 'Bezahlt',
    balance: 'Restbetrag',
    due: 'Restzahlung fällig am',
    pay: 'Restbetrag bezahlen',
    manage: 'Buchung verwalten',
    difference: 'Preisdifferenz',
    subjects: {
      booking_confirmation: (r) => `Buchung ${r} bestätigt`,
      balance_reminder: (r) => `Buchung ${r}: Ihre Restzahlung ist bald fällig`,
      balance_receipt: (r) => `Buchung ${r}: Restzahlung erhalten`,
      balance_failed: (r) => `Buchung ${r}: Restzahlung nicht möglich`,
      booking_amended: (r) => `Buchung ${r} geändert`,
      booking_cancelled: (r) => `Buchung ${r} storniert`,
    },
    intro: {
      booking_confirmation: 'Vielen Dank für Ihre Buchung. Wir haben Ihre Zahlung erhalten.',
      balance_reminder: 'Der Restbetrag Ihrer Buchung wird am Fälligkeitstag von Ihrer gespeicherten Karte abgebucht.',
      balance_receipt: 'Wir haben den Restbetrag Ihrer Buchung erhalten. Ihre Reise ist vollständig bezahlt.',
      balance_failed:
        'Wir konnten den Restbetrag nicht von Ihrer gespeicherten Karte abbuchen. Bitte bezahlen Sie ihn hier:',
      booking_amended: 'Ihre Buchung wurde wie folgt geändert:',
      booking_cancelled:
        'Ihre Buchung wurde storniert. Eine Erstattung geht auf die Karte, mit der Sie bezahlt haben; Ihre Bank kann bis zu 10 Tage brauchen, um sie anzuzeigen.',
    },
    fullyPaid: 'Ihre Reise ist vollständig bezahlt.',
    fee: 'Stornogebühr',
    refund: 'Erstattung',
  },
  fr: {
    hello: (n) => `Bonjour ${n},`,
    regards: 'Cordialement,\nL’équipe itinera',
    departure: 'Départ',
    total: 'Total',
    paid: 'Payé',
    balance: 'Solde',
    due: 'Solde à payer le',
    pay: 'Payer le solde',
    manage: 'Gérer votre réservation',
    difference: 'Différence de prix',
    subjects: {
      booking_confirmation: (r) => `Réservation ${r} confirmée`,
      balance_reminder: (r) => `Réservation ${r} : votre solde arrive à échéance`,
      balance_receipt: (r) => `Réservation ${r} : solde reçu`,
      balance_failed: (r) => `Réservation ${r} : nous n’avons pas pu prélever votre solde`,
      booking_amended: (r) => `Réservation ${r} modifiée`,
      booking_cancelled: (r) => `Réservation ${r} annulée`,
    },
    intro: {
      booking_confirmation: 'Merci pour votre réservation. Nous avons bien reçu votre paiement.',
      balance_reminder: 'Le solde de votre réservation sera prélevé sur votre carte enregistrée à la date d’échéance.',
      balance_receipt: 'Nous avons bien reçu le solde de votre réservation. Votre voyage est entièrement payé.',
      balance_failed: 'Nous n’avons pas pu prélever le solde sur votre carte enregistrée. Vous pouvez le payer ici :',
      booking_amended: 'Votre réservation a été modifiée comme suit :',
      booking_cancelled:
        'Votre réservation a été annulée. Le remboursement revient sur la carte utilisée pour payer ; votre banque peut mettre jusqu’à 10 jours à l’afficher.',
    },
    fullyPaid: 'Votre voyage est entièrement payé.',
    fee: 'Frais d’annulation',
    refund: 'Remboursement',
  },
};

/** The languages with their own wording; others fall back to English. */
export const MAIL_LANGUAGES = Object.keys(WORDS);

function money(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(centsToNumber(cents));
}

function day(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

export function renderMail(kind: MailKind, facts: MailFacts): RenderedMail {
  const w = WORDS[facts.language] ?? WORDS.en;
  const locale = `${WORDS[facts.language] ? facts.language : 'en'}-${facts.market.toUpperCase()}`;
  const m = (cents: number) => money(cents, facts.currency, locale);
  const rows: Array<[string, string]> = [
    [w.departure, day(facts.departureDate, locale)],
    [w.total, m(facts.totalCents)],
    [w.paid, m(facts.amountPaidCents)],
  ];
  if (kind === 'booking_cancelled' && facts.cancellation) {
    rows.push([w.fee, m(facts.cancellation.feeCents)], [w.refund, m(facts.cancellation.refundCents)]);
  } else if (facts.balanceCents > 0) {
    rows.push([w.balance, m(facts.balanceCents)]);
    if (facts.balanceDueDate) rows.push([w.due, day(facts.balanceDueDate, locale)]);
  }
  // an amendment that raises the price: the customer pays the difference with the balance's pay link
  const raised = kind === 'booking_amended' && (facts.priceDifferenceCents ?? 0) > 0 && facts.balanceCents > 0;
  const link = kind === 'balance_failed' || kind === 'balance_reminder' || raised ? facts.payLink : undefined;
  const changes = kind === 'booking_amended' ? (facts.changes ?? []) : [];
  if (kind === 'booking_amended' && facts.priceDifferenceCents) {
    rows.unshift([w.difference, m(facts.priceDifferenceCents)]);
  }
  const manage = kind === 'booking_confirmation' || kind === 'booking_amended' ? facts.manageLink : null;
  const closing = facts.balanceCents > 0 || kind === 'booking_cancelled' ? null : w.fullyPaid;
  const subject = w.subjects[kind](facts.reference);
  const text = [
    w.hello(facts.firstName),
    '',
    w.intro[kind],
    ...(link ? [link] : []),
    ...changes.map((c) => `- ${c}`),
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(manage ? ['', `${w.manage}: ${manage}`] : []),
    ...(closing && kind !== 'balance_receipt' ? ['', closing] : []),
    '',
    w.regards,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<!doctype html><html lang="${e(facts.language)}"><head><meta charset="utf-8"><title>${e(subject)}</title></head><body>`,
    `<p>${e(w.hello(facts.firstName))}</p>`,
    `<p>${e(w.intro[kind])}</p>`,
    ...(link ? [`<p><a href="${e(link)}">${e(w.pay)}</a></p>`] : []),
    ...(changes.length ? [`<ul>${changes.map((c) => `<li>${e(c)}</li>`).join('')}</ul>`] : []),
    `<table>${rows.map(([k, v]) => `<tr><th align="left">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`,
    ...(manage ? [`<p><a href="${e(manage)}">${e(w.manage)}</a></p>`] : []),
    ...(closing && kind !== 'balance_receipt' ? [`<p>${e(closing)}</p>`] : []),
    `<p>${e(w.regards).replace('\n', '<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
