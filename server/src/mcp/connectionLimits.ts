/**
 * What one bearer token may hold of the loopback HTTP server (http.ts), and what a connection
 * that shows no token may hold: nothing for long.
 *
 * `wsctx serve --config` gives several callers tokens of their own. Shared caps let one of them
 * take the others' room: opening sessions closed the other token's idle ones, holding every
 * session busy answered the other token 503, and connections that never sent a token took the
 * slots a real client needed (ECONNRESET). So:
 *
 * - **Sessions per token**: each of N tokens may keep `floor(maxSessions / N)` live sessions
 *   (100 with one token). A token at its share makes room by closing its own longest-idle
 *   session, never another token's; when all of its own are busy it gets 503.
 * - **Connections (and so streams) per token**: a connection belongs to the token its last
 *   request showed; each token may hold `floor(maxConnections / N)` of them (256 with one
 *   token). An open event stream holds its connection, so this caps a token's streams too; a
 *   request past it is answered 503 and its connection closed.
 * - **No token, no slot**: a connection that has not shown a valid token within
 *   {@link TOKEN_DEADLINE_MS} is closed, and when every slot is taken a new connection closes
 *   the oldest connection that has shown none, instead of being turned away itself.
 *
 * Every route behind the token check (MCP, `/status`, and any added beside them) is admitted
 * here (`admit`), so a new route is subject to the same rules.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Live MCP sessions one server keeps: 100 (each holds an MCP server object, a few hundred KB), shared equally by its tokens. */
export const DEFAULT_MAX_SESSIONS = 100;

/** Open connections one server accepts: 256 (clients keep one or two each), shared equally by its tokens. */
export const DEFAULT_MAX_CONNECTIONS = 256;

/** A connection must have shown a valid token within 5 s, or it is closed (one that sends nothing included). */
export const TOKEN_DEADLINE_MS = 5_000;

/** Each of `tokens` tokens' share of `max`: at least `min`. */
export function shareOf(max: number, tokens: number, min = 1): number {
  return Math.max(min, Math.floor(max / Math.max(1, tokens)));
}

interface Slot {
  socket: Socket;
  /** The token the connection's last request showed; undefined until one does. */
  owner: unknown;
  /** Closes the connection when no token is shown in time. */
  deadline: NodeJS.Timeout | undefined;
}

export interface ConnectionSlotsOptions {
  /** Open connections accepted, every token's and those not yet proven together. */
  maxConnections: number;
  /** How many tokens share them. */
  tokens: number;
  /** Milliseconds a connection has to show a valid token. */
  deadlineMs: number;
}

/** The server's connections: who holds each, and which to close when they run short. */
export class ConnectionSlots {
  /** In arrival order, so the first unproven one is the oldest. */
  private readonly slots = new Map<Socket, Slot>();
  /** Connections a token may hold. */
  readonly perToken: number;

  constructor(
    server: Server,
    private readonly options: ConnectionSlotsOptions,
  ) {
    this.perToken = shareOf(options.maxConnections, options.tokens, 2);
    server.on('connection', (socket: Socket) => this.arrived(socket));
  }

  /** Open connections, and those that have shown a valid token. */
  counts(): { open: number; proven: number } {
    let proven = 0;
    for (const slot of this.slots.values()) if (slot.owner !== undefined) proven++;
    return { open: this.slots.size, proven };
  }

  /**
   * A request on `socket` showed `owner`'s token: the connection is that token's. False when the
   * token already holds its share of connections (the caller answers 503 and closes it).
   */
  admit(socket: Socket, owner: unknown): boolean {
    const slot = this.slots.get(socket);
    if (!slot) return true;
    if (slot.owner === owner) return true;
    let held = 0;
    for (const other of this.slots.values()) if (other.owner === owner) held++;
    if (held >= this.perToken) return false;
    slot.owner = owner;
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = undefined;
    return true;
  }

  private arrived(socket: Socket): void {
    if (this.slots.size >= this.options.maxConnections && !this.closeOldestUnproven()) {
      socket.destroy();
      return;
    }
    const slot: Slot = {
      socket,
      owner: undefined,
      deadline: setTimeout(() => socket.destroy(), this.options.deadlineMs),
    };
    slot.deadline?.unref();
    this.slots.set(socket, slot);
    socket.once('close', () => {
      if (slot.deadline) clearTimeout(slot.deadline);
      this.slots.delete(socket);
    });
  }

  /** Makes room: closes the oldest connection that has shown no token; false when every one has. */
  private closeOldestUnproven(): boolean {
    for (const slot of this.slots.values()) {
      if (slot.owner !== undefined) continue;
      this.slots.delete(slot.socket);
      if (slot.deadline) clearTimeout(slot.deadline);
      slot.socket.destroy();
      return true;
    }
    return false;
  }
}

/** The longest-idle session (no request in flight) among `sessions` that `owner` holds. */
export function longestIdleOf<S extends { access: unknown; inFlight: number; lastSeen: number }>(
  sessions: ReadonlyMap<string, S>,
  owner: unknown,
): [string, S] | undefined {
  let oldest: [string, S] | undefined;
  for (const entry of sessions)
    if (entry[1].access === owner && entry[1].inFlight === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen))
      oldest = entry;
  return oldest;
}

/** How many of `sessions` `owner` holds. */
export function sessionsOf(sessions: ReadonlyMap<string, { access: unknown }>, owner: unknown): number {
  let n = 0;
  for (const session of sessions.values()) if (session.access === owner) n++;
  return n;
}
