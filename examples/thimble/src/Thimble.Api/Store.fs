/// Postgres access with Dapper. Every query lives here; handlers and the
/// sweeper never write SQL themselves.
module Thimble.Api.Store

open System
open System.Data
open Dapper
open Npgsql
open Thimble.Core

[<CLIMutable>]
type private ItemRow =
    { sku: string
      name: string
      category: string
      unit: string
      on_hand: int
      held: int
      reorder_point: Nullable<int>
      updated_at: DateTimeOffset }

[<CLIMutable>]
type private HoldRow =
    { id: Guid
      sku: string
      customer_id: string
      quantity: int
      created_at: DateTimeOffset
      expires_at: DateTimeOffset
      status: string }

let private toItem (r: ItemRow) =
    { Sku = Sku.tryParse r.sku |> Option.defaultWith (fun () -> failwithf "bad SKU in database: %s" r.sku)
      Name = r.name
      Category = r.category
      Unit = UnitOfSale.ofCode r.unit |> Option.defaultValue Each
      OnHand = r.on_hand
      Held = r.held
      ReorderPoint = Option.ofNullable r.reorder_point
      UpdatedAt = r.updated_at }

let private toHold (r: HoldRow) =
    { Id = HoldId r.id
      Sku = Sku.tryParse r.sku |> Option.get
      CustomerId = r.customer_id
      Quantity = r.quantity
      CreatedAt = r.created_at
      ExpiresAt = r.expires_at
      Status = HoldStatus.ofCode r.status |> Option.defaultValue Expired }

let schema =
    """
create table if not exists items (
    sku            text primary key,
    name           text not null,
    category       text not null,
    unit           text not null default 'each',
    on_hand        integer not null check (on_hand >= 0),
    reorder_point  integer null check (reorder_point >= 0),
    updated_at     timestamptz not null default now()
);

create table if not exists holds (
    id           uuid primary key,
    sku          text not null references items (sku),
    customer_id  text not null,
    quantity     integer not null check (quantity > 0),
    created_at   timestamptz not null,
    expires_at   timestamptz not null,
    status       text not null default 'active'
);

create index if not exists holds_active_expiry on holds (expires_at) where status = 'active';
create index if not exists holds_active_customer on holds (customer_id) where status = 'active';
"""

let ensureSchema (ds: NpgsqlDataSource) =
    task {
        use! conn = ds.OpenConnectionAsync()
        let! _ = conn.ExecuteAsync schema
        return ()
    }

let private itemColumns =
    """
select i.sku, i.name, i.category, i.unit, i.on_hand, i.reorder_point, i.updated_at,
       coalesce((select sum(h.quantity) from holds h
                 where h.sku = i.sku and h.status = 'active'), 0)::int as held
from items i
"""

/// One page of the catalogue, after the given SKU. Fetches limit + 1 rows so
/// Paging.ofFetched can tell whether there is a next page.
let listItems (ds: NpgsqlDataSource) (after: Sku option) (limit: int) =
    task {
        use! conn = ds.OpenConnectionAsync()

        let sql =
            itemColumns
            + "where (@after::text is null or i.sku > @after) order by i.sku limit @limit"

        let! rows =
            conn.QueryAsync<ItemRow>(
                sql,
                {| after = after |> Option.map Sku.value |> Option.toObj
                   limit = limit + 1 |}
            )

        return rows |> Seq.map toItem |> List.ofSeq
    }

let tryGetItem (ds: NpgsqlDataSource) (sku: Sku) =
    task {
        use! conn = ds.OpenConnectionAsync()
        let! row = conn.QuerySingleOrDefaultAsync<ItemRow>(itemColumns + "where i.sku = @sku", {| sku = sku.Value |})
        return row |> Option.ofObj |> Option.map toItem
    }

let allItems (ds: NpgsqlDataSource) =
    task {
        use! conn = ds.OpenConnectionAsync()
        let! rows = conn.QueryAsync<ItemRow>(itemColumns + "order by i.sku")
        return rows |> Seq.map toItem |> List.ofSeq
    }

/// Places a hold atomically: the item row is locked so two customers cannot
/// both take the last metre of the same fabric.
let placeHold (ds: NpgsqlDataSource) (settings: HoldSettings) (now: DateTimeOffset) (request: Holds.PlaceHold) =
    task {
        use! conn = ds.OpenConnectionAsync()
        use! tx = conn.BeginTransactionAsync(IsolationLevel.ReadCommitted)

        let normalized = Sku.tryParse request.Sku

        let! item =
            match normalized with
            | None -> System.Threading.Tasks.Task.FromResult None
            | Some sku ->
                task {
                    let! _ = conn.ExecuteAsync("select 1 from items where sku = @sku for update", {| sku = sku.Value |}, tx)

                    let! row =
                        conn.QuerySingleOrDefaultAsync<ItemRow>(
                            itemColumns + "where i.sku = @sku",
                            {| sku = sku.Value |},
                            tx
                        )

                    return row |> Option.ofObj |> Option.map toItem
                }

        let! active =
            conn.ExecuteScalarAsync<int>(
                "select count(*)::int from holds where customer_id = @customer and status = 'active'",
                {| customer = request.CustomerId |},
                tx
            )

        match Holds.create settings now Guid.NewGuid request item active with
        | Error e -> return Error e
        | Ok hold ->
            let! _ =
                conn.ExecuteAsync(
                    """
insert into holds (id, sku, customer_id, quantity, created_at, expires_at, status)
values (@id, @sku, @customer, @quantity, @createdAt, @expiresAt, 'active')
""",
                    {| id = hold.Id.Value
                       sku = hold.Sku.Value
                       customer = hold.CustomerId
                       quantity = hold.Quantity
                       createdAt = hold.CreatedAt
                       expiresAt = hold.ExpiresAt |},
                    tx
                )

            do! tx.CommitAsync()
            return Ok hold
    }

let tryGetHold (ds: NpgsqlDataSource) (HoldId id) =
    task {
        use! conn = ds.OpenConnectionAsync()
        let! row = conn.QuerySingleOrDefaultAsync<HoldRow>("select * from holds where id = @id", {| id = id |})
        return row |> Option.ofObj |> Option.map toHold
    }

let saveStatus (ds: NpgsqlDataSource) (hold: Hold) =
    task {
        use! conn = ds.OpenConnectionAsync()

        let! _ =
            conn.ExecuteAsync(
                "update holds set status = @status where id = @id",
                {| id = hold.Id.Value
                   status = HoldStatus.toCode hold.Status |}
            )

        return ()
    }

/// Marks up to batchSize overdue holds as expired and returns how many it
/// released. SKIP LOCKED lets two API instances sweep at the same time.
let expireDue (ds: NpgsqlDataSource) (now: DateTimeOffset) (batchSize: int) =
    task {
        use! conn = ds.OpenConnectionAsync()

        return!
            conn.ExecuteAsync(
                """
with due as (
    select id from holds
    where status = 'active' and expires_at <= @now
    order by expires_at
    limit @batch
    for update skip locked
)
update holds h set status = 'expired'
from due where h.id = due.id
""",
                {| now = now; batch = batchSize |}
            )
    }
