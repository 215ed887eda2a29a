/**
 * What a transport error means for a retry: was the request on the wire
 * (then the server may have processed it), and is trying again sensible?
 */

export interface NetworkFailure {
  /** The request may have reached the server; false only when it certainly did not. */
  sent: boolean;
  retryable: boolean;
  /** Readable cause, with the server's origin but nothing of the request. */
  reason: string;
  errno: string;
}

const NOT_SENT: Record<string, string> = {
  ECONNREFUSED: 'connection refused to',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout to',
  EHOSTUNREACH: 'host unreachable:',
  ENETUNREACH: 'network unreachable for',
  EADDRNOTAVAIL: 'cannot connect to',
  EAI_AGAIN: 'temporary DNS failure for',
};

const SENT: Record<string, string> = {
  ECONNRESET: 'connection reset by',
  EPIPE: 'connection closed by',
  UND_ERR_SOCKET: 'connection closed by',
  ETIMEDOUT: 'connection timed out to',
  UND_ERR_HEADERS_TIMEOUT: 'no response from',
  UND_ERR_BODY_TIMEOUT: 'response stalled from',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'truncated response from',
};

/** Returns undefined for errors that are not about the network (a bug: the caller rethrows). */
export function classifyNetworkError(error: unknown, origin: string): NetworkFailure | undefined {
  const errno = errorCode(error);
  if (!errno) return undefined;
  const notSent = NOT_SENT[errno];
  if (notSent) return { sent: false, retryable: true, reason: `${notSent} ${origin}`, errno };
  const sent = SENT[errno];
  if (sent) return { sent: true, retryable: true, reason: `${sent} ${origin}`, errno };
  if (errno === 'ENOTFOUND') {
    return { sent: false, retryable: false, reason: `host not found: ${new URL(origin).hostname}`, errno };
  }
  if (/^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(errno)) {
    return { sent: false, retryable: false, reason: `TLS failure with ${origin} (${errno})`, errno };
  }
  if (errno.startsWith('HPE_')) {
    return { sent: true, retryable: true, reason: `malformed response from ${origin} (${errno})`, errno };
  }
  // other system errors: assume the worst about the request, but trying again is reasonable
  if (/^E[A-Z]+$/.test(errno)) return { sent: true, retryable: true, reason: `${errno} from ${origin}`, errno };
  return undefined;
}

export function timeoutFailure(origin: string, ms: number): NetworkFailure {
  return {
    sent: true,
    retryable: true,
    reason: `no complete response from ${origin} within ${ms} ms`,
    errno: 'TIMEOUT',
  };
}

/** Node reports a refused dual-stack connect as an AggregateError; its parts carry the code. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) return errors.map(errorCode).find((c) => c !== undefined);
  return cause === undefined ? undefined : errorCode(cause);
}
