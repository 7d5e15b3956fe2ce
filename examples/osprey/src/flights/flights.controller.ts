import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
} from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import { CreateWatchDto, WatchView } from './dto/create-watch.dto';
import { FlightsService } from './flights.service';
import { AerodataClient, FlightStatus } from '../aerodata/aerodata.client';

@Controller('watches')
export class FlightsController {
  constructor(
    private readonly flights: FlightsService,
    private readonly aerodata: AerodataClient,
  ) {}

  @Post()
  create(@Body() dto: CreateWatchDto): Promise<WatchView> {
    return this.flights.create(dto);
  }

  @Get()
  list(@Query('accountId') accountId: string): Promise<WatchView[]> {
    return this.flights.listForAccount(accountId);
  }

  @Get(':id')
  get(@Param('id', ParseUUIDPipe) id: string): Promise<WatchView> {
    return this.flights.get(id);
  }

  /** Live status straight from AeroData (through the Redis cache). */
  @Get(':id/status')
  @Throttle({ default: { limit: 20, ttl: 60000 } })
  async status(
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<FlightStatus | null> {
    const watch = await this.flights.get(id);
    return this.aerodata.getStatus(watch.flightNumber, watch.departureDate);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  cancel(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    return this.flights.cancel(id);
  }
}
