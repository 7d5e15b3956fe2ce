namespace Bookshelf.Api.Models;

public record Book(int Id, string Title, string Isbn, int Year);

public record Loan(int MemberId, int BookId, DateOnly Due);

public record LoanRequest(int MemberId, int BookId);
