/**
 * Keeping secrets out of every output: errors, their causes, and log lines. A client's `Redactor`
 * knows its secrets (the token and every `defaultHeaders` value) and the header names that carry
 * credentials; what an error keeps of a library error (ky, undici, the runtime's `fetch`) is a
 * summary — name, message, code — never the `Request`, `Response` or options it held.
 */

/** Header names whose values are credentials: `Authorization`, cookies, and any `*-key`, `*-token`, `*-secret`. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|(^|-)(key|token|secret)$/i;

/** What stands for a part of a body nested too deep to clean. */
const TOO_DEEP = '[nested too deep]';
/** Secrets shorter than this are not searched for in text (too short to be a credential). */
const MIN_SECRET_LENGTH = 6;
const MASK = '***';
/** How far a cause chain is summarised. */
const MAX_CAUSE_DEPTH = 4;

/** Whether a header's value is a credential by its name. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** What an SDK error keeps of a library error: a plain `Error` with its name, message and code. */
export class CauseSummary extends Error {
  /** The original error's `code` (`ECONNRESET`, `UND_ERR_SOCKET`, …), when it had one. */
  readonly code: string | undefined;

  constructor(name: string, message: string, code: string | undefined, cause: CauseSummary | undefined) {
    super(message, cause ? { cause } : undefined);
    // The stack of a summary would only point here; the message says what happened.
    const hidden = { enumerable: false, configurable: true, writable: true };
    Object.defineProperties(this, {
      name: { ...hidden, value: name },
      stack: { ...hidden, value: `${name}: ${message}` },
    });
    this.code = code;
  }
}

/** Removes a client's secrets from what the SDK reports. */
export class Redactor {
  readonly #secrets: string[];
  readonly #headerNames: ReadonlySet<string>;

  /** `secrets`: the token and every `defaultHeaders` value; `headerNames`: the `defaultHeaders` names. */
  constructor(secrets: readonly (string | undefined)[], headerNames: readonly string[] = []) {
    this.#secrets = [
      ...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH)),
    ].sort((a, b) => b.length - a.length);
    this.#headerNames = new Set(headerNames.map((n) => n.toLowerCase()));
  }

  /** This redactor plus the credentials among `headers` (a request's own headers). */
  with(headers: Record<string, string | undefined> | undefined): Redactor {
    if (!headers) return this;
    const extra = Object.entries(headers).filter(
      ([name, value]) => value !== undefined && isSecretHeader(name),
    );
    if (extra.length === 0) return this;
    return new Redactor([...this.#secrets, ...extra.map(([, value]) => value)], [...this.#headerNames]);
  }

  /** The text with every known secret replaced by `***`. */
  text(value: string): string {
    let out = value;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  }

  /** A copy of the headers with credentials (by name, and the client's default headers) masked, secrets removed. */
  responseHeaders(headers: Headers): Headers {
    const out = new Headers();
    for (const [name, value] of headers.entries()) {
      const hidden = isSecretHeader(name) || this.#headerNames.has(name);
      out.append(name, hidden ? MASK : this.text(value));
    }
    return out;
  }

  /**
   * A JSON value with the secrets removed from every string. Bounded: a part nested deeper than 32
   * levels is replaced by {@link TOO_DEEP}, so no depth hides a secret.
   */
  value(input: unknown): unknown {
    if (this.#secrets.length === 0) return input;
    const clean = (value: unknown, depth: number): unknown => {
      if (typeof value === 'string') return this.text(value);
      if (typeof value !== 'object' || value === null) return value;
      if (depth > 32) return TOO_DEEP;
      if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.text(key)] = clean(item, depth + 1);
      return out;
    };
    return clean(input, 0);
  }

  /** A summary of a library error and its causes: names, messages (secrets removed) and codes only. */
  cause(error: unknown, depth = 0): CauseSummary | undefined {
    if (error === undefined || error === null || depth >= MAX_CAUSE_DEPTH) return undefined;
    if (typeof error !== 'object')
      return new CauseSummary('Error', this.text(String(error)), undefined, undefined);
    const { name, message, code, cause } = error as Record<'name' | 'message' | 'code' | 'cause', unknown>;
    return new CauseSummary(
      typeof name === 'string' ? name : 'Error',
      this.text(typeof message === 'string' ? message : ''),
      typeof code === 'string' ? code : undefined,
      this.cause(cause, depth + 1),
    );
  }
}

/**
 * A URL as errors, events and log lines show it: without userinfo (`user:pass@`) and with the
 * client's secrets masked (a same-origin redirect or a `next_page_url` may carry one in its query).
 * The SDK never sends userinfo (the base URL is reduced to its origin and path), so that part is a
 * second line of defence.
 */
export function publicUrl(url: string, redactor: Redactor): string {
  const cleaned = url.includes('@') ? url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1') : url;
  return redactor.text(cleaned);
}
