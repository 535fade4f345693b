export { buildGateway, migrateAll, type GatewayOptions } from './app.js';
export { gatewayConfig, GATEWAY_VARIABLES, type GatewayConfig } from './config.js';
export { SERVICES } from './services.js';
export { FeatureFlags } from './features.js';
