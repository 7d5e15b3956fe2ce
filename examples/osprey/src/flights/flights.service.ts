import {
  ConflictException,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CreateWatchDto, WatchView } from './dto/create-watch.dto';
import { WatchEntity } from './watch.entity';

@Injectable()
export class FlightsService {
  private readonly maxWatches: number;

  constructor(
    @InjectRepository(WatchEntity)
    private readonly watches: Repository<WatchEntity>,
    config: ConfigService,
  ) {
    this.maxWatches = config.getOrThrow<number>('limits.maxWatchesPerAccount');
  }

  async create(dto: CreateWatchDto, today = new Date()): Promise<WatchView> {
    if (dto.departureDate < today.toISOString().slice(0, 10)) {
      throw new UnprocessableEntityException(
        'departureDate is in the past; nothing left to watch',
      );
    }

    const active = await this.watches.count({
      where: { accountId: dto.accountId, active: true },
    });
    if (active >= this.maxWatches) {
      throw new ConflictException(
        `account ${dto.accountId} already has ${active} active watches (limit ${this.maxWatches})`,
      );
    }

    const existing = await this.watches.findOne({
      where: {
        accountId: dto.accountId,
        flightNumber: dto.flightNumber,
        departureDate: dto.departureDate,
      },
    });
    if (existing) {
      existing.callbackUrl = dto.callbackUrl;
      existing.active = true;
      return toView(await this.watches.save(existing));
    }

    const saved = await this.watches.save(
      this.watches.create({ ...dto, active: true }),
    );
    return toView(saved);
  }

  async listForAccount(accountId: string): Promise<WatchView[]> {
    const rows = await this.watches.find({
      where: { accountId },
      order: { departureDate: 'ASC', flightNumber: 'ASC' },
    });
    return rows.map(toView);
  }

  async get(id: string): Promise<WatchView> {
    const row = await this.watches.findOne({ where: { id } });
    if (!row) {
      throw new NotFoundException(`watch ${id} not found`);
    }
    return toView(row);
  }

  async cancel(id: string): Promise<void> {
    const result = await this.watches.update({ id }, { active: false });
    if (!result.affected) {
      throw new NotFoundException(`watch ${id} not found`);
    }
  }
}

function toView(w: WatchEntity): WatchView {
  return {
    id: w.id,
    flightNumber: w.flightNumber,
    departureDate: w.departureDate,
    callbackUrl: w.callbackUrl,
    active: w.active,
    lastPhase: w.lastPhase,
    lastGate: w.lastGate,
  };
}
