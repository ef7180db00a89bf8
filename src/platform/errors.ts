// One error type for everything the API refuses on purpose. The error handler renders it as
// {success:false, error, message} (plus errors:{field:[...]} for validation failures).

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldErrors,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
    /** Extra top-level fields of the error body, e.g. the client_secret of a payment to finish. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Validation failure with per-field messages; the message is the first problem. */
export function validationError(errors: FieldErrors, status = 422): AppError {
  const first = Object.values(errors).find((m) => m.length > 0)?.[0] ?? 'The given data was invalid.';
  return new AppError(status, 'validation_failed', first, errors);
}

/** Collects field problems in order, so the first one added is the message shown. */
export class FieldErrorBag {
  readonly errors: FieldErrors = {};
  add(field: string, message: string): void {
    const list = this.errors[field] ?? [];
    list.push(message);
    this.errors[field] = list;
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(status = 422): void {
    if (!this.empty) throw validationError(this.errors, status);
  }
}
