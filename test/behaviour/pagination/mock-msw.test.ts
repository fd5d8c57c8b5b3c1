import { createMockGateway } from 'merchant-gateway/testing';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeListsAgainstMock } from './mock-suite';

const mock = createMockGateway();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe('both lists against the mock, in-process through msw', () => {
  describeListsAgainstMock({ mock, baseUrl: () => 'https://gateway.test' });
});
