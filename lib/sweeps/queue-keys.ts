/** Why a sweep with a key sent in its request cannot run on BullMQ (the runner refuses it, the API says so first). */
export const NO_KEYS_ON_QUEUE =
  'a key sent with a sweep stays in the memory of the process that took it, and BullMQ workers are other processes: ' +
  'on BullMQ an endpoint takes its key from the workers\' environment (keySource "env")';
