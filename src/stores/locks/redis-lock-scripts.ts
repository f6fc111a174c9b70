/**
 * The Lua scripts of the Redis lock: each runs atomically in Redis. A conversation's lock is a queue
 * (a list of tickets, first = holder) plus one lease key per ticket whose expiry its owner renews
 * while it waits or works. A ticket whose lease expired (its process died) is skipped when it
 * reaches the head, so a crash delays the next turn by at most one lease, never for ever.
 *
 * KEYS[1] = the queue; ARGV[1] = the ticket; ARGV[2] = the lease in ms; ARGV[3] = the lease key prefix.
 * (Lease keys are built inside the scripts, so this needs a single Redis, not a cluster.)
 */

/** Joins the queue; returns 1 when the ticket holds the lock at once, else 0. */
export const ENQUEUE = `
redis.call('SET', ARGV[3] .. ARGV[1], '1', 'PX', ARGV[2])
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then return 1 end
return 0`;

/**
 * 1: the ticket holds the lock; 0: a live ticket is ahead; -1: the ticket's lease expired and it
 * lost its place. Dead tickets at the head are dropped on the way.
 */
export const CHECK = `
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head then return -1 end
  local alive = redis.call('EXISTS', ARGV[3] .. head) == 1
  if head == ARGV[1] then
    if alive then return 1 end
    redis.call('LPOP', KEYS[1])
    return -1
  end
  if alive then return 0 end
  redis.call('LPOP', KEYS[1])
end`;

/** Extends the ticket's lease (and the queue's expiry); 0 when the lease had already expired. */
export const RENEW = `
if redis.call('PEXPIRE', ARGV[3] .. ARGV[1], ARGV[2]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

/** Compare-and-delete: removes this ticket only (never another owner's); returns how many were removed. */
export const RELEASE = `
redis.call('DEL', ARGV[3] .. ARGV[1])
return redis.call('LREM', KEYS[1], 1, ARGV[1])`;

export interface LockScripts {
  parleyLockEnqueue(queue: string, ticket: string, leaseMs: number, leasePrefix: string): Promise<number>;
  parleyLockCheck(queue: string, ticket: string, leaseMs: number, leasePrefix: string): Promise<number>;
  parleyLockRenew(queue: string, ticket: string, leaseMs: number, leasePrefix: string): Promise<number>;
  parleyLockRelease(queue: string, ticket: string, leaseMs: number, leasePrefix: string): Promise<number>;
}

export const SCRIPTS: Readonly<Record<keyof LockScripts, string>> = {
  parleyLockEnqueue: ENQUEUE,
  parleyLockCheck: CHECK,
  parleyLockRenew: RENEW,
  parleyLockRelease: RELEASE,
};
