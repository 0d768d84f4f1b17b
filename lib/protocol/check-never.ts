/** Exhaustiveness check for switches over a union (the event union's kinds among them). */
export function checkNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
