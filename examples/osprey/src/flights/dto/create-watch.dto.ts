import { Transform } from 'class-transformer';
import { IsDateString, IsString, IsUrl, Length, Matches } from 'class-validator';

export class CreateWatchDto {
  @IsString()
  @Length(1, 64)
  accountId: string;

  /** Two-character airline code followed by 1–4 digits, e.g. "ba117". */
  @Transform(({ value }) =>
    typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() : value,
  )
  @Matches(/^[A-Z0-9]{2}\d{1,4}[A-Z]?$/, {
    message: 'flightNumber must look like an IATA flight designator (e.g. BA117)',
  })
  flightNumber: string;

  @IsDateString({ strict: true })
  departureDate: string;

  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false })
  callbackUrl: string;
}

export interface WatchView {
  id: string;
  flightNumber: string;
  departureDate: string;
  callbackUrl: string;
  active: boolean;
  lastPhase: string | null;
  lastGate: string | null;
}
