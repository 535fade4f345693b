// Prints a fresh API key in the platform's format: a value for PLATFORM_API_KEY.
import { newApiKey } from './domain/keys.js';

console.log(newApiKey());
