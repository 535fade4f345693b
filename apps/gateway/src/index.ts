export { buildGateway, migrateAll, type GatewayOptions } from './app.js';
export { gatewayConfig, type GatewayConfig } from './config.js';
export { SERVICES } from './services.js';
export { FeatureFlags } from './features.js';
