/** The response XML with its one Assertion signed by the key (PEM), the certificate in KeyInfo. */
export function signAssertion(xml: string, privateKeyPem: string, certPem: string): string;
