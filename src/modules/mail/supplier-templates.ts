// The e-mails to suppliers: the request to confirm a booked land service and its reminder. Written
// in English, the trade's common language (suppliers are abroad and answer many agencies). Pure:
// facts in, subject and bodies out.
import { escapeHtml } from '../../platform/html.js';

export type SupplierMailKind = 'supplier_request' | 'supplier_reminder';

export interface SupplierMailFacts {
  supplierName: string | null;
  reference: string;
  /** hotel, activity or transfer */
  serviceType: string;
  serviceName: string;
  /** YYYY-MM-DD: check-in or the day of the service */
  serviceDate: string;
  /** YYYY-MM-DD: check-out (hotels) */
  endDate: string | null;
  roomType: string | null;
  passengers: string[];
  /** the signed page where the supplier confirms or declines */
  answerLink: string;
}

export function renderSupplierMail(kind: SupplierMailKind, f: SupplierMailFacts) {
  const subject =
    kind === 'supplier_request'
      ? `Booking ${f.reference}: please confirm ${f.serviceName}`
      : `Reminder: booking ${f.reference} is waiting for your confirmation of ${f.serviceName}`;
  const rows: Array<[string, string]> = [
    ['Our booking reference', f.reference],
    ['Service', `${f.serviceName} (${f.serviceType})`],
    f.endDate ? ['Check-in', f.serviceDate] : ['Date', f.serviceDate],
    ...(f.endDate ? ([['Check-out', f.endDate]] as Array<[string, string]>) : []),
    ...(f.roomType ? ([['Room type', f.roomType]] as Array<[string, string]>) : []),
    ['Passengers', f.passengers.join(', ')],
  ];
  const intro =
    kind === 'supplier_request'
      ? 'We have booked the service below for our customers. Please confirm it with your own reference, or decline it with a reason, on this page (no login needed):'
      : 'We have not received your answer yet about the service below. Please confirm it with your own reference, or decline it with a reason, on this page:';
  const hello = f.supplierName ? `Dear ${f.supplierName},` : 'Hello,';
  const text = [
    hello,
    '',
    intro,
    f.answerLink,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    'Thank you,',
    'The itinera team',
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head><body>`,
    `<p>${e(hello)}</p>`,
    `<p>${e(intro)}</p>`,
    `<p><a href="${e(f.answerLink)}">Confirm or decline</a></p>`,
    `<table>${rows.map(([k, v]) => `<tr><th align="left">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`,
    '<p>Thank you,<br>The itinera team</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
