import dns from 'node:dns';
import { HostNotFoundError, type HostResolver } from '../../application/callbacks/notification-url-check';

/** The system resolver; "no such name" is told apart from "could not ask". */
export const systemResolver: HostResolver = async (hostname) => {
  try {
    const answers = await dns.promises.lookup(hostname, { all: true });
    return answers.map((a) => a.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new HostNotFoundError(`${hostname}: ${code}`);
    throw error;
  }
};
