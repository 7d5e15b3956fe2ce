using Bookshelf.Api.Exceptions;
using Bookshelf.Api.Models;
using Microsoft.Extensions.Options;

namespace Bookshelf.Api.Services;

public sealed class LendingOptions
{
    public int PageSize { get; set; } = 20;
    public int MaxLoansPerMember { get; set; } = 3;
}

public sealed class LoanService
{
    public const int LoanDays = 21;
    private const decimal LateFeePerDay = 0.25m;

    private readonly LibraryContext _db;
    private readonly LendingOptions _options;

    public LoanService(LibraryContext db, IOptions<LendingOptions> options)
    {
        _db = db;
        _options = options.Value;
    }

    /// <summary>Lends a book to a member for <see cref="LoanDays"/> days.</summary>
    public Loan Borrow(int memberId, int bookId)
    {
        var open = _db.Loans.Count(l => l.MemberId == memberId);
        if (open >= _options.MaxLoansPerMember)
        {
            throw new LoanLimitExceededException(memberId, _options.MaxLoansPerMember);
        }
        var loan = new Loan(memberId, bookId, DateOnly.FromDateTime(DateTime.Today).AddDays(LoanDays));
        _db.Loans.Add(loan);
        _db.SaveChanges();
        return loan;
    }

    /// <summary>What a member owes for a book returned <paramref name="daysLate"/> days late.</summary>
    public static decimal LateFee(int daysLate) => daysLate <= 0 ? 0m : daysLate * LateFeePerDay;
}
