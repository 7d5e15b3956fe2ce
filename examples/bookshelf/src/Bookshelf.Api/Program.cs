using Bookshelf.Api.Models;
using Bookshelf.Api.Services;
using Microsoft.EntityFrameworkCore;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddDbContext<LibraryContext>(options =>
    options.UseSqlite(builder.Configuration.GetConnectionString("Bookshelf")));
builder.Services.Configure<LendingOptions>(builder.Configuration.GetSection("Lending"));
builder.Services.AddScoped<LoanService>();
builder.Services.AddEndpointsApiExplorer();
builder.Services.AddSwaggerGen();

var app = builder.Build();

if (app.Environment.IsDevelopment())
{
    app.UseSwagger();
    app.UseSwaggerUI();
}

app.MapGet("/books", async (LibraryContext db, int page = 1) =>
    await db.Books.OrderBy(b => b.Title).Skip((page - 1) * 20).Take(20).ToListAsync());

app.MapPost("/loans", (LoanRequest request, LoanService loans) =>
    Results.Ok(loans.Borrow(request.MemberId, request.BookId)));

app.Run();
