// The client the type tests look at: built once, never sends a request (they only check types).
import { MerchantGateway } from 'merchant-gateway';

export const typesGateway = new MerchantGateway({
  baseUrl: 'https://gateway.test',
  apiKey: 'sk_test',
});
