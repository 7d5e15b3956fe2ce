namespace Bookshelf.Api.Exceptions;

/// <summary>
/// Thrown when a member already has as many books on loan as the lending options allow.
/// </summary>
public sealed class LoanLimitExceededException : InvalidOperationException
{
    public LoanLimitExceededException(int memberId, int limit)
        : base($"member {memberId} already has {limit} books on loan")
    {
    }
}
