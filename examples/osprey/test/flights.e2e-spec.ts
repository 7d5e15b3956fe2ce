import { INestApplication, ValidationPipe } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AerodataClient, FlightStatus } from '../src/aerodata/aerodata.client';
import { AppModule } from '../src/app.module';
import { WebhookNotifier } from '../src/notify/webhook-notifier.service';
import { StatusPoller } from '../src/poller/status-poller.service';

/**
 * Runs against the Postgres and Redis from docker-compose (or the CI service
 * containers). AeroData and outgoing webhooks are faked.
 */
describe('watches (e2e)', () => {
  let app: INestApplication;
  let poller: StatusPoller;
  const statuses = new Map<string, FlightStatus>();
  const sent: Array<{ url: string; fields: string[] }> = [];

  beforeAll(async () => {
    process.env.NODE_ENV = 'test';
    process.env.OSPREY_DISABLE_POLLER = '1';
    process.env.DATABASE_URL ??= 'postgres://osprey:osprey@localhost:5433/osprey_test';
    process.env.REDIS_URL ??= 'redis://localhost:6380/9';
    process.env.MAX_WATCHES_PER_ACCOUNT = '2';
    process.env.POLL_INTERVAL_SECONDS = '1';
    process.env.THROTTLE_LIMIT = '500';

    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(AerodataClient)
      .useValue({
        getStatus: async (flight: string, date: string) =>
          statuses.get(`${flight}:${date}`) ?? null,
      })
      .overrideProvider(WebhookNotifier)
      .useValue({
        notify: async (url: string, change: { fields: string[] }) => {
          sent.push({ url, fields: change.fields });
          return true;
        },
      })
      .compile();

    app = moduleRef.createNestApplication();
    app.setGlobalPrefix('api');
    app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
    await app.init();
    poller = app.get(StatusPoller);
  });

  beforeEach(async () => {
    statuses.clear();
    sent.length = 0;
    await app.get(DataSource).query('TRUNCATE watches');
  });

  afterAll(async () => {
    await app.close();
  });

  const body = (overrides: Record<string, string> = {}) => ({
    accountId: 'acct-e2e',
    flightNumber: 'lh 4417',
    departureDate: '2031-05-14',
    callbackUrl: 'https://hooks.example.test/osprey',
    ...overrides,
  });

  it('GET /api/health answers without touching the database', () =>
    request(app.getHttpServer()).get('/api/health').expect(200, { status: 'ok' }));

  it('creates a watch and normalises the flight number', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/watches')
      .send(body())
      .expect(201);

    expect(res.body.flightNumber).toBe('LH4417');
    expect(res.body.active).toBe(true);
  });

  it('rejects plain http callbacks', () =>
    request(app.getHttpServer())
      .post('/api/watches')
      .send(body({ callbackUrl: 'http://hooks.example.test/osprey' }))
      .expect(400));

  it('enforces the per-account watch limit', async () => {
    const server = app.getHttpServer();
    await request(server).post('/api/watches').send(body({ flightNumber: 'BA117' })).expect(201);
    await request(server).post('/api/watches').send(body({ flightNumber: 'BA119' })).expect(201);
    await request(server).post('/api/watches').send(body({ flightNumber: 'BA121' })).expect(409);
  });

  it('notifies on a gate change but not on the first poll', async () => {
    const res = await request(app.getHttpServer()).post('/api/watches').send(body()).expect(201);
    const status: FlightStatus = {
      flightNumber: 'LH4417',
      departureDate: '2031-05-14',
      phase: 'scheduled',
      gate: 'B44',
      scheduledDeparture: '2031-05-14T07:35:00Z',
      estimatedDeparture: null,
      fetchedAt: new Date().toISOString(),
    };
    statuses.set('LH4417:2031-05-14', status);

    await poller.tick(new Date('2031-05-14T05:00:00Z'));
    expect(sent).toHaveLength(0);

    statuses.set('LH4417:2031-05-14', { ...status, gate: 'B46' });
    await poller.tick(new Date('2031-05-14T05:10:00Z'));
    expect(sent).toEqual([{ url: 'https://hooks.example.test/osprey', fields: ['gate'] }]);

    const watch = await request(app.getHttpServer()).get(`/api/watches/${res.body.id}`).expect(200);
    expect(watch.body.lastGate).toBe('B46');
  });

  it('stops watching a flight once it has landed', async () => {
    const res = await request(app.getHttpServer()).post('/api/watches').send(body()).expect(201);
    statuses.set('LH4417:2031-05-14', {
      flightNumber: 'LH4417',
      departureDate: '2031-05-14',
      phase: 'landed',
      gate: 'B46',
      scheduledDeparture: '2031-05-14T07:35:00Z',
      estimatedDeparture: '2031-05-14T07:52:00Z',
      fetchedAt: new Date().toISOString(),
    });

    await poller.tick(new Date('2031-05-14T11:00:00Z'));
    const watch = await request(app.getHttpServer()).get(`/api/watches/${res.body.id}`).expect(200);
    expect(watch.body.active).toBe(false);
  });
});
