import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

const ITEM_ID = /^prod_[A-Za-z0-9_-]{1,64}$/;

export class SearchQueryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  q!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class BrowseQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  category?: string;
}

export class CartItemDto {
  @IsString()
  @Matches(ITEM_ID, { message: 'item_id must be an item id (prod_…)' })
  item_id!: string;
}

export class CartAddDto extends CartItemDto {
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity!: number;

  /** Accepted and ignored: the catalog's name and price are used. */
  @IsOptional()
  name?: unknown;

  @IsOptional()
  price?: unknown;
}

export class CartUpdateDto extends CartItemDto {
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  quantity!: number;
}

export class ContactDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsEmail()
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(5_000)
  message!: string;
}
