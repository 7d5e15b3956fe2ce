import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type FlightPhase =
  | 'scheduled'
  | 'delayed'
  | 'boarding'
  | 'departed'
  | 'landed'
  | 'cancelled'
  | 'diverted';

/** Phases after which a flight cannot change any more: stop polling it. */
export const FINAL_PHASES: ReadonlySet<FlightPhase> = new Set([
  'landed',
  'cancelled',
  'diverted',
]);

@Entity({ name: 'watches' })
@Index(['accountId', 'flightNumber', 'departureDate'], { unique: true })
export class WatchEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', length: 64 })
  @Index()
  accountId: string;

  /** IATA flight designator, e.g. "LH4417". Stored upper-case. */
  @Column({ name: 'flight_number', length: 8 })
  flightNumber: string;

  /** Local departure date at the origin airport, YYYY-MM-DD. */
  @Column({ name: 'departure_date', type: 'date' })
  departureDate: string;

  @Column({ name: 'callback_url', length: 2048 })
  callbackUrl: string;

  @Column({ name: 'last_phase', type: 'varchar', length: 16, nullable: true })
  lastPhase: FlightPhase | null;

  @Column({ name: 'last_gate', type: 'varchar', length: 8, nullable: true })
  lastGate: string | null;

  @Column({ name: 'last_estimated_departure', type: 'timestamptz', nullable: true })
  lastEstimatedDeparture: Date | null;

  @Column({ default: true })
  @Index()
  active: boolean;

  @Column({ name: 'last_polled_at', type: 'timestamptz', nullable: true })
  lastPolledAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
