import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// A throwaway self-signed certificate for 127.0.0.1 (valid until 2126), made for this test only:
// no one trusts it, which is the point.
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8ZsofxLQu6hrYbR/
LKe3lzvX19eCW3Dw+RWtszmglu6hRANCAAQt59YRKz5jO0CH0ODdPFd/Pa3QPgdE
O75JD9mz8jPba7Lmaf0N/jibA8i2IYZ1E69biRFYtJFJ8oe6sBu9Vx7F
-----END PRIVATE KEY-----`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUD6XiiIJ01MuS2Y/uEXentUVADFAwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzA2MDgzMVoYDzIxMjYxMDMw
MDYwODMxWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQt59YRKz5jO0CH0ODdPFd/Pa3QPgdEO75JD9mz8jPba7Lmaf0N/jib
A8i2IYZ1E69biRFYtJFJ8oe6sBu9Vx7Fo28wbTAdBgNVHQ4EFgQULc/KjWUxkdx4
05f1DTKtEnUtEA8wHwYDVR0jBBgwFoAULc/KjWUxkdx405f1DTKtEnUtEA8wDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSQAwRgIhAMfL92G/FyMbv3wWLs9uN1e0YqLoZ+06sZXWklga+t/vAiEA
w+axbOew0uF1ixKdauymCFyUJo3vpInRWkjk6ouSupM=
-----END CERTIFICATE-----`;

let gw: GatewayUnderTest | undefined;
let target: Server | undefined;
afterEach(async () => {
  await gw?.close();
  await new Promise((resolve) => (target ? target.close(resolve) : resolve(undefined)));
});

it('does not forward to an https target whose certificate it cannot verify', async () => {
  let reached = 0;
  target = createServer({ key: KEY, cert: CERT }, (_req, res) => {
    reached++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}');
  });
  await new Promise<void>((resolve) => target!.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  gw = await gatewayUnderTest({ PULSE_PROXY_URL: `https://127.0.0.1:${port}` });

  const res = await gw.app.inject({ method: 'GET', url: '/api/v1/pulse/events' });
  expect(res.statusCode).toBe(502);
  expect(res.json().error.code).toBe('BAD_GATEWAY');
  expect(res.json().error.message).toMatch(/self[- ]signed certificate/);
  expect(reached).toBe(0);
});
