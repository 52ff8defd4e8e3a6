/**
 * The connect probe of the notification URL check: a TCP connection to the merchant's host that is
 * closed as soon as it is accepted (nothing is sent). Refused and unroutable are definite answers;
 * anything else, a timeout included, is not.
 */
import net from 'node:net';
import type { ConnectProbe } from '../../application/ports/host-lookups';

const DEFINITELY_UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export const tcpProbe: ConnectProbe = (address, port, timeoutMs) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    let settled = false;
    const finish = (answer: 'open' | 'refused' | 'unknown') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish('unknown'), Math.max(1, timeoutMs));
    socket.once('connect', () => finish('open'));
    socket.once('error', (error: NodeJS.ErrnoException) => finish(DEFINITELY_UNREACHABLE.has(error.code ?? '') ? 'refused' : 'unknown'));
  });
