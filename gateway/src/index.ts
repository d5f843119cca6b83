export { createGateway, type Gateway, type GatewayOptions } from './gateway';
export { readGatewayConfig, type GatewayConfig } from './gateway.config';
export { gatewayEnvironment, publicWebEnvironment } from './gateway.environment';
export { printGatewaySchema } from './graphql/schema';
