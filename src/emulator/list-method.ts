/**
 * Lets the emulated secrets API accept the Vault-style `LIST` HTTP method.
 *
 * Node's HTTP parser (llhttp) has a fixed method table without `LIST`, so a request
 * line `LIST /v1/ssh/roles HTTP/1.1` is answered with 400 and the connection is
 * closed before fastify ever sees it. The fix therefore lives below fastify: every
 * connection's incoming bytes pass through `ListRewriter`, which turns
 * `LIST <target> HTTP/1.x` into `GET <target with list=true> HTTP/1.x` — exactly
 * what Vault clients send as the fallback `GET ...?list=true`.
 *
 * Design: the server keeps the real `net.Socket`; only its `push` (the single door
 * through which a readable stream receives bytes read from the kernel) is wrapped.
 * This beats wrapping the socket in a Duplex because nothing has to imitate a
 * socket: `remoteAddress`, timeouts, `destroy()` from fault injection,
 * `closeAllConnections()` on `app.close()`, keep-alive bookkeeping and backpressure
 * (`push` returning false stops the kernel reads) all stay Node's own code. The one
 * cost: by default the HTTP server "consumes" the socket's handle, feeding llhttp
 * straight from C++ and bypassing `push`. Marking the handle as already consumed —
 * the same flag the server checks so that it never consumes a handle twice — makes
 * it read through the ordinary JS 'data' path instead, which is the path it always
 * uses for injected Duplex connections.
 *
 * Finding where each request starts needs real framing: heads line by line, bodies
 * by Content-Length or chunked coding (sizes, data, trailers), so a body containing
 * `LIST / HTTP/1.1` is never touched. Anything ambiguous or oversized (heads over
 * 64 KiB, bad chunk sizes, both Content-Length and Transfer-Encoding, upgrades)
 * switches the connection to pass-through: Node then reacts to the bytes as it
 * would without this module, usually with its own 400.
 */

import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** A head (or trailer section, or chunk-size line) longer than this stops rewriting. */
export const MAX_HEAD_BYTES = 64 * 1024;

const LF = 0x0a;
const EMPTY = Buffer.alloc(0);
const LIST_LINE = /^LIST ([^ ]+) (HTTP\/1\.[01])(\r?\n)$/;
const CHUNK_SIZE = /^0*([0-9a-fA-F]{1,12})$/;

type Phase =
  | 'request-line'
  | 'header'
  | 'body'
  | 'chunk-size'
  | 'chunk-data'
  | 'chunk-end'
  | 'trailer'
  | 'pass-through';

/** What the head says about the body that follows it. */
interface HeadFacts {
  method: string;
  contentLength: number | undefined;
  transferEncoding: string | undefined;
  upgrade: boolean;
}

/**
 * The byte-stream rewriter for one connection. `write` takes each chunk as read and
 * returns the chunks to hand on; `end` returns whatever was held back at EOF.
 * Only a request line is ever held (until its LF); all other bytes leave at once.
 */
export class ListRewriter {
  #phase: Phase = 'request-line';
  /** Pieces of the line being scanned; only the request line is withheld from output. */
  #line: Buffer[] = [];
  #lineLength = 0;
  #lineDone = false;
  /** Bytes seen in the current head or trailer section, for the size limit. */
  #sectionLength = 0;
  /** Bytes left in the current Content-Length body or chunk. */
  #remaining = 0;
  #head: HeadFacts | undefined;
  #out: Buffer[] = [];
  /** Start of the bytes of the current chunk that are due verbatim but not yet emitted. */
  #emitFrom = 0;

  get passingThrough(): boolean {
    return this.#phase === 'pass-through';
  }

  write(chunk: Buffer): Buffer[] {
    if (this.#phase === 'pass-through') return [chunk];
    this.#out = [];
    this.#emitFrom = 0;
    let offset = 0;
    while (offset < chunk.length && !this.passingThrough) offset = this.#step(chunk, offset);
    this.#emitVerbatim(chunk, chunk.length);
    return this.#out;
  }

  end(): Buffer[] {
    const held = this.#phase === 'request-line' && this.#lineLength > 0 ? [this.#takeLine()] : [];
    this.#resetLine();
    return held;
  }

  #step(chunk: Buffer, offset: number): number {
    switch (this.#phase) {
      case 'request-line':
        return this.#requestLine(chunk, offset);
      case 'header':
        return this.#headerLine(chunk, offset);
      case 'body':
        return this.#counted(chunk, offset, () => this.#nextRequest());
      case 'chunk-size':
        return this.#chunkSizeLine(chunk, offset);
      case 'chunk-data':
        return this.#counted(chunk, offset, () => this.#setPhase('chunk-end'));
      case 'chunk-end':
        return this.#chunkEndLine(chunk, offset);
      case 'trailer':
        return this.#trailerLine(chunk, offset);
      default:
        return chunk.length;
    }
  }

  #requestLine(chunk: Buffer, offset: number): number {
    this.#emitVerbatim(chunk, offset);
    const end = this.#scanLine(chunk, offset);
    // The scanned bytes now live in #line; they leave rewritten (or not) below.
    this.#emitFrom = end;
    if (this.#overLimit()) return end;
    if (!this.#lineDone) return end;
    const line = this.#takeLine();
    const text = line.toString('latin1');
    this.#out.push(text.startsWith('LIST ') ? rewriteListLine(text, line) : line);
    if (isBlank(text)) {
      // Stray CRLFs between requests are allowed; the next line is the request line.
      this.#sectionLength = 0;
      return end;
    }
    this.#head = {
      method: text.slice(0, text.indexOf(' ')),
      contentLength: undefined,
      transferEncoding: undefined,
      upgrade: false,
    };
    this.#phase = 'header';
    return end;
  }

  #headerLine(chunk: Buffer, offset: number): number {
    const end = this.#scanLine(chunk, offset);
    if (this.#overLimit() || !this.#lineDone) return end;
    const text = this.#takeLine().toString('latin1');
    if (isBlank(text)) this.#endHead();
    else if (!noteHeader(this.#head!, text)) this.#giveUp();
    return end;
  }

  #endHead(): void {
    const head = this.#head!;
    if (!framingIsPlain(head)) {
      this.#giveUp();
    } else if (head.transferEncoding !== undefined) {
      this.#sectionLength = 0;
      this.#phase = 'chunk-size';
    } else if (head.contentLength) {
      this.#remaining = head.contentLength;
      this.#phase = 'body';
    } else {
      this.#nextRequest();
    }
  }

  /** Passes through the rest of a Content-Length body or chunk, then moves on. */
  #counted(chunk: Buffer, offset: number, finished: () => void): number {
    const take = Math.min(this.#remaining, chunk.length - offset);
    this.#remaining -= take;
    if (this.#remaining === 0) finished();
    return offset + take;
  }

  #chunkSizeLine(chunk: Buffer, offset: number): number {
    const end = this.#scanLine(chunk, offset);
    if (this.#overLimit() || !this.#lineDone) return end;
    const text = stripEol(this.#takeLine().toString('latin1'));
    this.#sectionLength = 0;
    const semicolon = text.indexOf(';');
    const digits = CHUNK_SIZE.exec(semicolon === -1 ? text : text.slice(0, semicolon));
    if (!digits) {
      this.#giveUp();
      return end;
    }
    this.#remaining = Number.parseInt(digits[1]!, 16);
    this.#phase = this.#remaining === 0 ? 'trailer' : 'chunk-data';
    return end;
  }

  #chunkEndLine(chunk: Buffer, offset: number): number {
    const end = this.#scanLine(chunk, offset);
    if (this.#overLimit() || !this.#lineDone) return end;
    if (isBlank(this.#takeLine().toString('latin1'))) this.#phase = 'chunk-size';
    else this.#giveUp();
    return end;
  }

  #trailerLine(chunk: Buffer, offset: number): number {
    const end = this.#scanLine(chunk, offset);
    if (this.#overLimit() || !this.#lineDone) return end;
    if (isBlank(this.#takeLine().toString('latin1'))) this.#nextRequest();
    return end;
  }

  /** Adds the bytes up to and including the next LF to #line; sets #lineDone if the LF was found. */
  #scanLine(chunk: Buffer, offset: number): number {
    const lf = chunk.indexOf(LF, offset);
    const end = lf === -1 ? chunk.length : lf + 1;
    this.#line.push(chunk.subarray(offset, end));
    this.#lineLength += end - offset;
    this.#sectionLength += end - offset;
    this.#lineDone = lf !== -1;
    return end;
  }

  #takeLine(): Buffer {
    const line = this.#line.length === 1 ? this.#line[0]! : Buffer.concat(this.#line, this.#lineLength);
    this.#resetLine();
    return line;
  }

  #resetLine(): void {
    this.#line = [];
    this.#lineLength = 0;
    this.#lineDone = false;
  }

  #overLimit(): boolean {
    if (this.#sectionLength <= MAX_HEAD_BYTES) return false;
    this.#giveUp();
    return true;
  }

  /** Stops rewriting for good; a withheld request line leaves unchanged. */
  #giveUp(): void {
    if (this.#phase === 'request-line') this.#out.push(this.#takeLine());
    this.#resetLine();
    this.#phase = 'pass-through';
  }

  #nextRequest(): void {
    this.#head = undefined;
    this.#sectionLength = 0;
    this.#phase = 'request-line';
  }

  #setPhase(phase: Phase): void {
    this.#phase = phase;
  }

  #emitVerbatim(chunk: Buffer, upTo: number): void {
    if (upTo > this.#emitFrom) this.#out.push(chunk.subarray(this.#emitFrom, upTo));
    this.#emitFrom = upTo;
  }
}

/** `LIST <target> HTTP/1.x` → `GET <target with list=true> HTTP/1.x`; anything malformed stays as is. */
function rewriteListLine(text: string, original: Buffer): Buffer {
  const match = LIST_LINE.exec(text);
  if (!match) return original;
  const [, target, version, eol] = match;
  return Buffer.from(`GET ${withListTrue(target!)} ${version}${eol}`, 'latin1');
}

/**
 * Adds `list=true` to a request target, keeping the rest of its query. An existing
 * `list` parameter is dropped rather than repeated, since a repeated one would
 * reach the handler as an array.
 */
export function withListTrue(target: string): string {
  const question = target.indexOf('?');
  if (question === -1) return `${target}?list=true`;
  const kept = target
    .slice(question + 1)
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=', 1)[0] !== 'list');
  return `${target.slice(0, question)}?${[...kept, 'list=true'].join('&')}`;
}

/** Records the framing-relevant headers; false when the line is not a header Node would accept. */
function noteHeader(head: HeadFacts, text: string): boolean {
  const line = stripEol(text);
  const colon = line.indexOf(':');
  // Folded continuation lines and lines without a name are errors for Node too.
  if (colon <= 0 || line[0] === ' ' || line[0] === '\t') return false;
  const name = line.slice(0, colon).toLowerCase();
  const value = line.slice(colon + 1).trim();
  if (name === 'content-length') return noteContentLength(head, value);
  if (name === 'transfer-encoding') {
    head.transferEncoding = head.transferEncoding === undefined ? value : `${head.transferEncoding}, ${value}`;
  } else if (name === 'upgrade') {
    head.upgrade = true;
  }
  return true;
}

function noteContentLength(head: HeadFacts, value: string): boolean {
  if (!/^\d+$/.test(value)) return false;
  const length = Number(value);
  if (!Number.isSafeInteger(length)) return false;
  if (head.contentLength !== undefined && head.contentLength !== length) return false;
  head.contentLength = length;
  return true;
}

/** False when the body's extent is not plain Content-Length or chunked framing Node would accept. */
function framingIsPlain(head: HeadFacts): boolean {
  // After CONNECT or an upgrade the bytes may stop being HTTP at all.
  if (head.method === 'CONNECT' || head.upgrade) return false;
  if (head.transferEncoding === undefined) return true;
  // Node refuses both framings at once, and request codings that do not end in chunked.
  return head.contentLength === undefined && endsChunked(head.transferEncoding);
}

function endsChunked(transferEncoding: string): boolean {
  const codings = transferEncoding.split(',');
  return codings[codings.length - 1]!.trim().toLowerCase() === 'chunked';
}

function isBlank(line: string): boolean {
  return line === '\r\n' || line === '\n';
}

function stripEol(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

/** The private flag Node's HTTP server sets on a handle it reads from C++ directly. */
interface ConsumableHandle {
  _consumed?: boolean;
}

const installed = new WeakSet<Server>();

/**
 * Makes `server` accept `LIST` requests as `GET ...?list=true`. Call it before the
 * server accepts connections, e.g. inside fastify's `serverFactory` or on
 * `app.server` before `listen`. Returns the server; installing twice is harmless.
 */
export function acceptListMethod(server: Server): Server {
  if (installed.has(server)) return server;
  installed.add(server);
  // Prepended, so the socket is prepared before the HTTP server's own listener sees it.
  server.prependListener('connection', rewriteIncoming);
  return server;
}

function rewriteIncoming(socket: Duplex): void {
  const handle = (socket as unknown as { _handle?: ConsumableHandle | null })._handle;
  if (handle) handle._consumed = true;
  const rewriter = new ListRewriter();
  const push = socket.push;
  socket.push = function rewritingPush(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) {
      for (const piece of rewriter.end()) push.call(this, piece);
      return push.call(this, null);
    }
    if (!Buffer.isBuffer(chunk)) return push.call(this, chunk, encoding);
    return pushAll(this, push, rewriter.write(chunk));
  };
}

/** Pushes every piece; the last answer tells the socket whether to keep reading. */
function pushAll(stream: Duplex, push: Duplex['push'], pieces: Buffer[]): boolean {
  // Nothing to hand on yet (a request line is incomplete): an empty push still ends
  // the read, as the stream machinery expects of every read.
  if (pieces.length === 0) return push.call(stream, EMPTY);
  let wantsMore = true;
  for (const piece of pieces) wantsMore = push.call(stream, piece);
  return wantsMore;
}
