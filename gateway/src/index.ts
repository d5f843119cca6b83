export { createGateway, type Gateway, type GatewayOptions } from './gateway';
export { readGatewayConfig, type GatewayConfig } from './gateway.config';
export { printGatewaySchema } from './graphql/schema';
