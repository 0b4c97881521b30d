/** 127.0.0.0/8, ::1 and localhost: the only hosts an http:// issuer may have (a test's provider). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
