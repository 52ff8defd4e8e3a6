import dns from 'node:dns';
import { HostNotFoundError, type HostResolver } from '../../application/ports/host-lookups';

/** Every address the system resolver gives for a name, in its order; errors as node reports them. */
export async function lookupAllAddresses(hostname: string): Promise<string[]> {
  const answers = await dns.promises.lookup(hostname, { all: true });
  return answers.map((a) => a.address);
}

/** The system resolver; "no such name" is told apart from "could not ask". */
export const systemResolver: HostResolver = async (hostname) => {
  try {
    return await lookupAllAddresses(hostname);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new HostNotFoundError(`${hostname}: ${code}`);
    throw error;
  }
};
