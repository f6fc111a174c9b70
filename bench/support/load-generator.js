// The load generator runs in a child process, so that it does not share the servers' event loop: each
// script forks itself with LOAD_FLAG, and the child answers one message with the result of `load`.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const LOAD_FLAG = '--load-generator';

/** In the child (started with LOAD_FLAG): runs `load` on the message it gets and sends the result back. */
export function isLoadGenerator(load) {
  if (process.argv[2] !== LOAD_FLAG) return false;
  process.once('message', async (data) => process.send(await load(data)));
  return true;
}

/** In the parent: forks the script at `scriptUrl` as a load generator and resolves with its result. */
export function inChild(scriptUrl, data) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(scriptUrl), [LOAD_FLAG]);
    child.once('message', (result) => {
      child.kill();
      resolve(result);
    });
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`the load generator exited with ${code}`)));
    child.send(data);
  });
}
