// A token bucket per key (a web caller's origin): a burst of `burst`
// requests, then `rate` a second; and at most `running` of its requests at
// work at once, so that a site sending a burst of costly requests (snapshots)
// holds only its share of the worker and other callers keep their pace.
// Memory only: a worker restart refills it.

import { AxError } from '../../protocol/errors.js';

export const RATE = { rate: 50, burst: 200, running: 8 };

export class RateLimiter {
  /** @param {{rate?: number, burst?: number, running?: number, now?: () => number}} [o] */
  constructor(o = {}) {
    this.rate = o.rate ?? RATE.rate;
    this.burst = o.burst ?? RATE.burst;
    this.running = o.running ?? RATE.running;
    this.now = o.now ?? Date.now;
    /** @type {Map<string, {tokens: number, at: number}>} */
    this.buckets = new Map();
    /** @type {Map<string, number>} requests at work per key */
    this.busy = new Map();
  }

  /**
   * Starts one request of `key`: spends its budget and takes a working slot,
   * or throws `rate_limited`. Returns the function that frees the slot (call
   * it once the request is answered).
   * @returns {() => void}
   */
  start(key) {
    const n = this.busy.get(key) ?? 0;
    if (n >= this.running) throw new AxError('rate_limited', `${key} has ${n} requests at work: wait for their answers, then send more`);
    this.take(key);
    this.busy.set(key, n + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left > 0) this.busy.set(key, left);
      else this.busy.delete(key);
    };
  }

  /** Spends one request of `key`'s budget, or throws `rate_limited`. */
  take(key) {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) throw new AxError('rate_limited', `more than ${this.rate} requests a second from ${key}: wait a second and retry`);
    b.tokens -= 1;
    // Full buckets say nothing: forget them, so many origins cannot grow the map.
    if (this.buckets.size > 1000) for (const [k, v] of this.buckets) if (v.tokens >= this.burst - 1) this.buckets.delete(k);
  }
}
