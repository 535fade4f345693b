/**
 * Why an attempt failed, and whether trying again may succeed: transient (HTTP 5xx, 408, 429, a
 * timeout, a lost connection, SMTP 4xx) or permanent (other HTTP 4xx, SMTP 5xx, a missing `env:`
 * variable, a config that cannot work). Messages name the host at most, never a URL or a secret.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export const permanent = (message: string) => new DeliveryError(message, false);
export const transient = (message: string) => new DeliveryError(message, true);
