import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeListsAgainstMock } from './mock-suite';

const mock = createMockGateway();
let server: MockServer;
beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server.close());

describe('both lists against the mock, over real HTTP on loopback', () => {
  describeListsAgainstMock({ mock, baseUrl: () => server.url });
});
