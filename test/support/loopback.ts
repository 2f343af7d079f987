/** Refuses any DynamoDB endpoint that is not on this machine: tests never touch a real table. */
export function assertLoopback(endpoint: string): void {
  const host = new URL(endpoint).hostname
  if (!(host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`Refusing to run tests against non-local DynamoDB endpoint ${endpoint}`)
  }
}
