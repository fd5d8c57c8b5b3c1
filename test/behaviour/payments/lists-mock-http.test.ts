import { createMockGateway } from 'merchant-gateway/testing';
import { describe } from 'vitest';
import { useListeningMock } from '../../support';
import { describeListsAgainstMock } from './lists-suite';

const mock = createMockGateway();
const server = useListeningMock(mock);

describe('both lists against the mock, over real HTTP on loopback', () => {
  describeListsAgainstMock({ mock, baseUrl: () => server.url });
});
